// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SingleOwnerWallet} from "./SingleOwnerWallet.sol";

/// @title CREATE2 factory of SingleOwnerWallet: the address is known before deployment (EIP-6492 tests).
contract WalletFactory {
    event WalletDeployed(address indexed wallet, address indexed owner, bytes32 salt);

    /// @notice Deploys the wallet of `owner` for `salt`, or returns it when it exists already.
    function deployWallet(address owner, bytes32 salt) external returns (address wallet) {
        wallet = computeAddress(owner, salt);
        if (wallet.code.length > 0) return wallet;
        new SingleOwnerWallet{salt: salt}(owner);
        emit WalletDeployed(wallet, owner, salt);
    }

    /// @notice The address `deployWallet(owner, salt)` deploys to.
    function computeAddress(address owner, bytes32 salt) public view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(SingleOwnerWallet).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
