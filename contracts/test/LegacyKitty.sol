// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title A pre-standard NFT as CryptoKitties deployed it: Transfer has no indexed arguments, and there is no ERC-165.
contract LegacyKitty {
    event Transfer(address from, address to, uint256 tokenId);

    mapping(uint256 => address) private owners;

    /// @notice Mints or moves `id` to `to` (anyone: a test contract).
    function transfer(address to, uint256 id) external {
        address from = owners[id];
        owners[id] = to;
        emit Transfer(from, to, id);
    }

    function ownerOf(uint256 id) external view returns (address) {
        address owner = owners[id];
        require(owner != address(0), "no such kitty");
        return owner;
    }
}
