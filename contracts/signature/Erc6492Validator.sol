// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title Deployless EIP-6492 check, run as the init code of an `eth_call` without `to`.
/// @notice The constructor deploys the counterfactual wallet through its factory when it has no code yet (inside
/// the call only: nothing is mined), asks it `isValidSignature`, and returns one byte: 0x01 valid, 0x00 not.
/// @dev `signature` is the EIP-6492 wrapper without its 32-byte magic suffix:
/// `abi.encode(address factory, bytes factoryCalldata, bytes innerSignature)`.
contract Erc6492Validator {
    bytes4 private constant _ERC1271_MAGIC = 0x1626ba7e;

    constructor(address signer, bytes32 hash, bytes memory wrapped) {
        (address factory, bytes memory factoryCalldata, bytes memory signature) = abi.decode(wrapped, (address, bytes, bytes));
        bool valid;
        if (signer.code.length == 0) {
            // The factory's own result does not matter: what it deployed is checked below. EIP-6492 gives raw
            // calldata for the factory, hence the low-level call.
            // solhint-disable-next-line avoid-low-level-calls
            (bool deployed, ) = factory.call(factoryCalldata);
            deployed;
        }
        if (signer.code.length > 0) {
            (bool ok, bytes memory result) = signer.staticcall(abi.encodeWithSelector(_ERC1271_MAGIC, hash, signature));
            // At least one 32-byte ABI word: a strict `> 31` would say the same less plainly.
            // solhint-disable-next-line gas-strict-inequalities
            valid = ok && result.length >= 32 && bytes4(result) == _ERC1271_MAGIC;
        }
        // A constructor's return data is the deployed code: only assembly can return the one-byte answer instead.
        // solhint-disable-next-line no-inline-assembly
        assembly ("memory-safe") {
            mstore(0, valid)
            return(31, 1)
        }
    }
}
