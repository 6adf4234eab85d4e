// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title EIP-1271 wallet that answers a wrong value even for its owner's signature: the magic value of the old
/// draft (`isValidSignature(bytes,bytes)`, 0x20c13b0b), which some early wallets still return.
contract WrongValueWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    /// @notice Always the legacy draft's magic value, never EIP-1271's 0x1626ba7e.
    function isValidSignature(bytes32, bytes calldata) external pure returns (bytes4) {
        return 0x20c13b0b;
    }
}
